# source: https://github.com/SakurajimaMaiii/TSD/issues/6
# also: https://github.com/SakurajimaMaiii/TSD/commit/329c8c84f076fe8aad259cd26cff646976e0f6f7
# kind: hardcoded_cpu
# bug: the checkpoint helper called alg.cpu().state_dict(); Module.cpu() works in place, so after the first save training continued with a CPU network and CUDA batches; the fix saved alg.state_dict() without moving it.
# split: dev2
import os

import torch
import torch.nn.functional as F

from algs import build_algorithm


def save_ckpt(name, alg, args):
    blob = {"args": vars(args), "model_dict": alg.cpu().state_dict()}  # bug: hardcoded_cpu
    torch.save(blob, os.path.join(args.output, name))


def train(args, loaders):
    alg = build_algorithm(args).cuda()
    opt = torch.optim.SGD(alg.parameters(), lr=args.lr, momentum=0.9)
    for step in range(args.max_steps):
        x, y = next(loaders["train"])
        x, y = x.cuda(), y.cuda()
        loss = F.cross_entropy(alg(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % args.ckpt_every == 0:
            save_ckpt(f"step{step + 1}.pkl", alg, args)
    save_ckpt("final.pkl", alg, args)
