# source: https://github.com/ShichenLiu/SoftRas/pull/50
# kind: per_step_host_alloc
# bug: The rasterizer's forward/backward allocated its large work buffers as CPU FloatTensors and then copied them to the mesh's device on every call, which is slow; the fix allocates them directly with device= (torch.zeros/torch.ones/zeros_like).
# split: dev
import torch


class SoftRaster(torch.autograd.Function):
    @staticmethod
    def forward(ctx, faces, size):
        dev = faces.device
        b, n = faces.shape[:2]
        info = torch.FloatTensor(b, n, 27).fill_(0.0).to(device=dev)  # bug: per_step_host_alloc
        agg = torch.FloatTensor(b, 2, size, size).fill_(0.0).to(device=dev)  # bug: per_step_host_alloc
        img = torch.FloatTensor(b, 4, size, size).fill_(1.0).to(device=dev)  # bug: per_step_host_alloc
        ctx.save_for_backward(faces, info, agg)
        return img

    @staticmethod
    def backward(ctx, grad_img):
        faces, _info, _agg = ctx.saved_tensors
        grad_faces = torch.zeros_like(faces).to(faces.device)  # bug: per_step_host_alloc
        return grad_faces, None


def render(faces, size=64):
    return SoftRaster.apply(faces, size)
