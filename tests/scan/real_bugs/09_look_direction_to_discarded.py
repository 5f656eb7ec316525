# source: https://github.com/daniilidis-group/neural_renderer/pull/52
# also: https://github.com/daniilidis-group/neural_renderer/commit/5de5bf1ff8725f3f0715eb76859b1ac7f8b7973c
# kind: to_result_discarded
# bug: The camera "look" transform called direction.to(device) on a tensor argument without keeping the result, so a CPU direction stayed on the CPU next to CUDA vertices; the fix assigns the result back.
# split: dev
import torch
import torch.nn.functional as F


def look_at(verts, eye, direction=(0.0, 0.0, 1.0)):
    dev = verts.device
    if isinstance(direction, (list, tuple)):
        direction = torch.tensor(direction, dtype=torch.float32, device=dev)
    elif torch.is_tensor(direction):
        direction.to(dev)  # bug: to_result_discarded
    eye = torch.as_tensor(eye, dtype=torch.float32, device=dev)

    z = F.normalize(direction.view(1, 3), dim=1)
    up = torch.tensor([[0.0, 1.0, 0.0]], device=dev)
    x = F.normalize(torch.cross(up, z, dim=1), dim=1)
    y = F.normalize(torch.cross(z, x, dim=1), dim=1)
    rot = torch.cat([x, y, z], dim=0)
    return (verts - eye) @ rot.t()
