import torch


def to_gpu(tensor, use_cuda=False):
    return tensor.cuda() if use_cuda else tensor


def batches(arrays, batch_size, use_cuda=False):
    data = [to_gpu(torch.from_numpy(a), use_cuda) for a in arrays]
    for block in data:
        for start in range(0, len(block), batch_size):
            yield block[start:start + batch_size]


def preview(arrays):
    return [to_gpu(torch.from_numpy(a)) for a in arrays[:2]]
