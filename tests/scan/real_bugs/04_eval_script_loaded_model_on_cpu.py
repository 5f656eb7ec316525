# source: https://github.com/deep-learning-with-pytorch/ImageCaptioning.pytorch/pull/3
# also: https://github.com/deep-learning-with-pytorch/ImageCaptioning.pytorch/commit/2dfbf716fc91d44c4d2160b3bce3a0b4b00d8840
# kind: loaded_weights_not_moved
# bug: The evaluation script built the captioning model and loaded its checkpoint but never moved it to the GPU, while the evaluation batches were on CUDA; the fix picks a device and calls model.to(device) after loading.
# split: test
import argparse

import torch
import torch.nn as nn


def build_captioner(vocab_size):
    return nn.Sequential(nn.Linear(2048, 512), nn.ReLU(), nn.Linear(512, vocab_size))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--vocab", type=int, default=9000)
    args = ap.parse_args()

    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    captioner = build_captioner(args.vocab)
    captioner.load_state_dict(torch.load(args.ckpt, map_location=dev))  # bug: loaded_weights_not_moved
    captioner.eval()

    feats = torch.randn(16, 2048).to(dev)
    with torch.no_grad():
        words = captioner(feats).argmax(-1)
    print(words.tolist())


if __name__ == "__main__":
    main()
