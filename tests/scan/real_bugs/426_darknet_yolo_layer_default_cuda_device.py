# source: https://github.com/nrsyed/pytorch-yolov3/pull/5
# kind: wrong_device_choice
# bug: Darknet accepted a device argument but the config parser built each YOLO detection layer with its own default device "cuda", so on a multi-GPU machine with device="cuda:1" the anchor/grid tensors were allocated on cuda:0 while the feature maps were on cuda:1; the fix threads the chosen device through to the YOLO layers.
# split: test20
import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, anchors, mask, device="cuda"):
        super().__init__()
        self.anchors = [anchors[i] for i in mask]
        self.device = device

    def forward(self, x):
        num_anchors = len(self.anchors)
        n, p, h, w = x.shape
        x = x.reshape(n, num_anchors, p // num_anchors, h, w)
        xywh = x[:, :, 0:4].clone()
        cx = torch.linspace(0, w - 1, w, device=self.device).repeat(h, 1)
        cy = torch.linspace(0, h - 1, h, device=self.device).repeat(w, 1).t()
        xywh[:, :, 0].sigmoid_().add_(cx).div_(w)
        xywh[:, :, 1].sigmoid_().add_(cy).div_(h)
        anchors = torch.tensor(self.anchors, device=self.device)
        xywh[:, :, 2].exp_().mul_(anchors[:, 0].reshape(1, num_anchors, 1, 1))
        xywh[:, :, 3].exp_().mul_(anchors[:, 1].reshape(1, num_anchors, 1, 1))
        return xywh.permute(0, 1, 3, 4, 2).reshape(n, -1, 4)


def blocks2modules(blocks):
    modules = nn.ModuleList()
    in_ch = 3
    for block in blocks:
        if block["type"] == "conv":
            modules.append(nn.Conv2d(in_ch, block["filters"], 3, padding=1))
            in_ch = block["filters"]
        elif block["type"] == "yolo":
            modules.append(YOLOLayer(block["anchors"], block["mask"]))  # bug: wrong_device_choice
    return modules


class Darknet(nn.Module):
    def __init__(self, blocks, device="cuda"):
        super().__init__()
        self.modules_ = blocks2modules(blocks)
        self.device = device

    def forward(self, x):
        for m in self.modules_:
            x = m(x)
        return x


if __name__ == "__main__":
    blocks = [
        {"type": "conv", "filters": 16},
        {"type": "conv", "filters": 3 * 9},
        {"type": "yolo", "anchors": [(10, 13), (16, 30), (33, 23)], "mask": [0, 1, 2]},
    ]
    device = "cuda:1" if torch.cuda.device_count() > 1 else "cuda"
    net = Darknet(blocks, device=device).to(device)
    img = torch.rand(1, 3, 32, 32, device=device)
    print(net(img).shape)
