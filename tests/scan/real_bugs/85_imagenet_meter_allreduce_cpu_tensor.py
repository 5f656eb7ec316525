# source: https://github.com/pytorch/examples/pull/1034
# also: https://github.com/pytorch/examples/pull/1031
# kind: cpu_accumulator
# bug: the distributed ImageNet example summed its accuracy meter across ranks by building torch.FloatTensor([sum, count]) on the CPU and all-reducing it, which the NCCL backend rejects; the fix created the tensor on the GPU when available.
# split: dev2
import torch
import torch.distributed as dist


class RunningMean:
    def __init__(self, name):
        self.name = name
        self.sum, self.count, self.avg = 0.0, 0, 0.0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def sync(self):
        buf = torch.FloatTensor([self.sum, self.count])  # bug: cpu_accumulator
        dist.all_reduce(buf, dist.ReduceOp.SUM, async_op=False)
        self.sum, self.count = buf.tolist()
        self.avg = self.sum / self.count


def validate(model, loader, gpu):
    top1 = RunningMean("Acc@1")
    model.eval()
    with torch.no_grad():
        for images, target in loader:
            images, target = images.cuda(gpu), target.cuda(gpu)
            acc = (model(images).argmax(1) == target).float().mean().item() * 100
            top1.update(acc, images.size(0))
    top1.sync()
    return top1.avg
