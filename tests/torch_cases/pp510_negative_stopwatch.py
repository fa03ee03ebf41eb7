# pycls' precise-time benchmark (hold-out 10): a stopwatch object's tic()/toc() around each forward and
# backward; the synchronize before toc() is what makes the measured time true
import torch
from pycls.core.timer import Timer

model = torch.load("regnet.pt").cuda()
loss_fun = torch.nn.CrossEntropyLoss().cuda()


def compute_time_train(num_iter, warmup_iter):
    inputs = torch.rand(64, 3, 224, 224, device="cuda")
    labels = torch.zeros(64, dtype=torch.int64, device="cuda")
    fw_timer, bw_timer = Timer(), Timer()
    for cur_iter in range(num_iter + warmup_iter):
        if cur_iter == warmup_iter:
            fw_timer.reset()
            bw_timer.reset()
        fw_timer.tic()
        loss = loss_fun(model(inputs), labels)
        torch.cuda.synchronize()
        fw_timer.toc()
        bw_timer.tic()
        loss.backward()
        torch.cuda.synchronize()
        bw_timer.toc()
    return fw_timer.average_time, bw_timer.average_time
