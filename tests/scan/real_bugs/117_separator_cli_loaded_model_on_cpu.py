# source: https://github.com/sigsep/open-unmix-pytorch/pull/61
# also: https://github.com/sigsep/open-unmix-pytorch/commit/c30c56106134053b34e1246179e90d1fe9b48482
# kind: loaded_weights_not_moved
# bug: the separation CLI loaded the pretrained separator once and froze it, but never moved it to the selected device, while the prediction helper moved each loaded waveform to that device, so GPU inference failed; the fix adds `separator.to(device)` after loading.
# split: test3
import argparse

import torch
import torchaudio

from unmixer import utils


def separate(path, separator, device="cpu"):
    audio, rate = torchaudio.load(path)
    audio = audio.to(device)
    audio = utils.resample(audio, rate, separator.sample_rate)
    with torch.no_grad():
        return separator(audio[None])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--model", default="umxhq")
    parser.add_argument("--no-cuda", action="store_true")
    args = parser.parse_args()
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")

    separator = utils.load_separator(model_str_or_path=args.model, pretrained=True)  # bug: loaded_weights_not_moved
    separator.freeze()

    for path in args.inputs:
        estimates = separate(path, separator, device=device)
        for i, est in enumerate(estimates[0]):
            torchaudio.save(f"{path}.{i}.wav", est.cpu(), separator.sample_rate)


if __name__ == "__main__":
    main()
