# source: https://github.com/pytorch/pytorch/issues/547
# kind: to_result_discarded
# bug: A user moved the conv net with net.cuda() but wrote x.cuda() on the input without keeping the result, so the convolution got a CPU input and CUDA weights; maintainers explained the call returns a copy and the fix is x = x.cuda().
# split: dev
import torch
import torch.nn as nn


def probe():
    layer = nn.Conv2d(1, 6, kernel_size=(1, 1))
    layer.cuda()
    image = torch.randn(1, 1, 100, 100)
    image.cuda()  # bug: to_result_discarded
    return layer(image)


if __name__ == "__main__":
    print(probe().shape)
