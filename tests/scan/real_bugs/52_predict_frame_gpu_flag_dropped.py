# source: https://github.com/graphnet-team/graphnet/pull/636
# kind: hardcoded_cpu
# bug: the training examples took a --gpus option for fitting but did not pass it to the prediction helper, whose default placed inference on the CPU, so predictions always ran on the host; the fix forwarded the gpus argument.
# split: test2
import argparse

import torch


def predict_frame(model, loader, gpus=None):
    device = torch.device("cuda:%d" % gpus[0]) if gpus else torch.device("cpu")
    model = model.to(device).eval()
    rows = []
    with torch.no_grad():
        for x in loader:
            rows.append(model(x.to(device)).cpu())
    return torch.cat(rows)


def main(args, model, train_fn, test_loader):
    train_fn(model, gpus=args.gpus)
    return predict_frame(model, test_loader)  # bug: hardcoded_cpu


if __name__ == "__main__":
    cli = argparse.ArgumentParser()
    cli.add_argument("--gpus", type=int, nargs="+", default=None)
    main(cli.parse_args(), torch.nn.Linear(4, 1), lambda m, gpus=None: None, [torch.ones(2, 4)])
