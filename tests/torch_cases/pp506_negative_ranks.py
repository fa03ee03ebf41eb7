"""An all_gather helper for pickled results: one small size tensor and one receive buffer per process of
the run, made once per call (at evaluation), not per training step."""

import pickle

import torch
import torch.distributed as dist


def gather_results(data):
    world_size = dist.get_world_size()
    payload = torch.ByteTensor(torch.ByteStorage.from_buffer(pickle.dumps(data))).to("cuda")
    local_size = torch.LongTensor([payload.numel()]).to("cuda")
    size_list = [torch.LongTensor([0]).to("cuda") for _ in range(world_size)]
    dist.all_gather(size_list, local_size)
    sizes = [int(s.item()) for s in size_list]
    buffers = []
    for _ in sizes:
        buffers.append(torch.ByteTensor(size=(max(sizes),)).to("cuda"))
    dist.all_gather(buffers, payload)
    return [pickle.loads(b.cpu().numpy().tobytes()) for b in buffers]
