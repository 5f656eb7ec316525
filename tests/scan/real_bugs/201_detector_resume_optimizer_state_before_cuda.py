# source: https://github.com/jwyang/faster-rcnn.pytorch/pull/327
# also: https://github.com/jwyang/faster-rcnn.pytorch/commit/b4d4c5246898e62ac957ce949b025a8bf64cd599
# kind: loaded_weights_not_moved
# bug: when resuming, the training script restored the checkpoint's optimizer state while the detector was still on the CPU (load_state_dict casts the momentum buffers to the parameters' device) and only called .cuda() on the network afterwards, so the first step mixed CUDA parameters with CPU optimizer state; the fix moves the network to CUDA before the checkpoint is loaded.
# split: test8
import argparse
import os

import torch
import torch.nn as nn

from detector import TwoStageDetector, build_loader


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--cuda", action="store_true")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--ckpt_dir", default="models")
    p.add_argument("--ckpt_epoch", type=int, default=1)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epochs", type=int, default=20)
    return p.parse_args()


def main():
    args = parse_args()
    net = TwoStageDetector(num_classes=21)
    groups = [{"params": [p], "lr": args.lr * (2 if "bias" in n else 1)} for n, p in net.named_parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(groups, momentum=0.9)
    start_epoch = 1

    if args.resume:
        ckpt = torch.load(os.path.join(args.ckpt_dir, f"detector_{args.ckpt_epoch}.pth"))
        net.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])  # bug: loaded_weights_not_moved
        start_epoch = ckpt["epoch"] + 1

    if args.cuda:
        net.cuda()

    loader = build_loader("trainval")
    for epoch in range(start_epoch, args.epochs + 1):
        net.train()
        for images, info, boxes, n_boxes in loader:
            if args.cuda:
                images, info, boxes, n_boxes = images.cuda(), info.cuda(), boxes.cuda(), n_boxes.cuda()
            losses = net(images, info, boxes, n_boxes)
            loss = sum(l.mean() for l in losses)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save({"model": net.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
                   os.path.join(args.ckpt_dir, f"detector_{epoch}.pth"))


if __name__ == "__main__":
    main()
