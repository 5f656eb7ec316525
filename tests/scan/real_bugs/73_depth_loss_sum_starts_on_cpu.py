# source: https://github.com/FangjinhuaWang/PatchmatchNet/issues/35
# also: https://github.com/FangjinhuaWang/PatchmatchNet/commit/584caa01b719c5db2e854b0afc3ec79f0a5042da
# kind: cpu_accumulator
# bug: the multi-stage depth loss started its running sum as torch.Tensor([0]) on the CPU and added CUDA smooth-L1 terms to it; the maintainer's fix started the sum from the Python number 0.
# split: dev2
import torch
import torch.nn.functional as F

from mvs_net import DepthNet


def stage_loss(preds, refined, gts, masks, n_stages=4):
    total = torch.Tensor([0])  # bug: cpu_accumulator
    for s in range(1, n_stages):
        valid = masks[s] > 0.5
        target = gts[s][valid]
        for p in preds[s]:
            total = total + F.smooth_l1_loss(p[valid], target, reduction="mean")
    valid = masks[0] > 0.5
    total = total + F.smooth_l1_loss(refined[valid], gts[0][valid], reduction="mean")
    return total


def train_step(net, opt, batch, device):
    imgs = batch["imgs"].to(device)
    gts = {k: v.to(device) for k, v in batch["depth"].items()}
    masks = {k: v.to(device) for k, v in batch["mask"].items()}
    refined, preds = net(imgs)
    loss = stage_loss(preds, refined, gts, masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
