# source: https://github.com/rstrudel/segmenter/issues/10
# also: https://github.com/rstrudel/segmenter/commit/53bcb733ef0ddef821d65ad5374e12f0a5811a97
# kind: loaded_weights_not_moved
# bug: The segmentation inference script loaded the pretrained checkpoint into a model that stayed on the CPU while images were sent to the GPU ("Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)"); the fix adds model.to(device) right after loading.
# split: dev
import sys
from pathlib import Path

import torch
import torch.nn as nn

DEV = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def restore(ckpt_path):
    state = torch.load(ckpt_path, map_location="cpu")
    net = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 150, 1))
    net.load_state_dict(state["model"])
    return net


def main(ckpt_path, image_dir):
    net = restore(ckpt_path)  # bug: loaded_weights_not_moved
    net.eval()
    for img_path in sorted(Path(image_dir).glob("*.pt")):
        img = torch.load(img_path).unsqueeze(0).to(DEV)
        with torch.no_grad():
            seg = net(img).argmax(1)
        print(img_path.name, seg.shape)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
