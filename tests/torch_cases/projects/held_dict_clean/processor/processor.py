import torch


class Processor:
    def __init__(self, arg, feeder):
        self.arg = arg
        self.dev = "cuda:0"
        self.data_loader = dict()
        if arg.phase == "train":
            self.data_loader["train"] = torch.utils.data.DataLoader(
                dataset=feeder(**arg.train_feeder_args),
                batch_size=arg.batch_size,
                shuffle=True,
                num_workers=arg.num_worker,
                drop_last=True,
            )
        self.data_loader["test"] = torch.utils.data.DataLoader(
            dataset=feeder(**arg.test_feeder_args),
            batch_size=arg.test_batch_size,
            shuffle=False,
            num_workers=arg.num_worker,
        )

    def start(self):
        for epoch in range(self.arg.num_epoch):
            self.train()
            print(epoch, len(self.data_loader["test"]))

    def train(self):
        raise NotImplementedError
