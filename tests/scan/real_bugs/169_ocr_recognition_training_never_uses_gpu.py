# source: https://github.com/mindee/doctr/pull/427
# also: https://github.com/mindee/doctr/commit/0dded4ecd91b30032d58b22aae1e502b6dca3fbb
# kind: model_not_moved
# bug: the PyTorch text-recognition training reference built (and optionally resumed) the model but never moved it, or the image batches, to a GPU, so training silently ran on the CPU; the fix selects a GPU by default when one is available, calls model.cuda() and moves the images in the train and eval loops (issue #409).
# split: test6
import argparse

import torch
from torch.utils.data import DataLoader, RandomSampler

from doctr.datasets import VOCABS, RecognitionDataset
from doctr.models import recognition
from torchvision.transforms import Normalize


def fit_one_epoch(model, loader, batch_transforms, optimizer, scheduler):
    model.train()
    for images, targets in loader:
        images = batch_transforms(images)
        loss = model(images, targets)["loss"]
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5)
        optimizer.step()
        scheduler.step()


def main(args):
    torch.backends.cudnn.benchmark = True
    train_set = RecognitionDataset(img_folder=args.images, labels_path=args.labels)
    loader = DataLoader(train_set, batch_size=args.batch_size, drop_last=True, num_workers=4,
                        sampler=RandomSampler(train_set), pin_memory=True, collate_fn=train_set.collate_fn)
    batch_transforms = Normalize(mean=(0.694, 0.695, 0.693), std=(0.299, 0.296, 0.301))

    model = recognition.__dict__[args.arch](pretrained=args.pretrained, vocab=VOCABS["french"])  # bug: model_not_moved
    if args.resume:
        model.load_state_dict(torch.load(args.resume, map_location="cpu"))

    optimizer = torch.optim.Adam(model.parameters(), args.lr, betas=(0.95, 0.99), eps=1e-6)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, args.epochs * len(loader))
    for _ in range(args.epochs):
        fit_one_epoch(model, loader, batch_transforms, optimizer, scheduler)
    torch.save(model.state_dict(), f"./{args.arch}.pt")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("arch")
    p.add_argument("images")
    p.add_argument("labels")
    p.add_argument("--batch_size", type=int, default=64)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--resume", default=None)
    p.add_argument("--pretrained", action="store_true")
    main(p.parse_args())
