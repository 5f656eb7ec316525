# source: https://github.com/torchfont/torchfont/pull/327
# also: https://github.com/torchfont/torchfont/commit/40b22b0c2cf70953f260edb71f7aad53bf772b1c
# kind: tensor_no_device_in_forward
# bug: the variable-font transform drew each axis value with torch.rand((), generator=generator) and no device, so passing a CUDA torch.Generator (to make sampling reproducible on the GPU) raised a device-type mismatch; the fix creates the random scalar on generator.device.
# split: test7
from typing import Dict, Iterable, Optional, Tuple

import torch


def axis_ranges(font_path: str, face_index: int) -> Iterable[Tuple[str, float, float]]:
    # stand-in for reading the fvar table of a variable font
    yield "wght", 100.0, 900.0
    yield "wdth", 75.0, 125.0


def random_location(font_path: str, face_index: int = 0,
                    generator: Optional[torch.Generator] = None) -> Dict[str, float]:
    location = {}
    for tag, lo, hi in axis_ranges(font_path, face_index):
        t = torch.rand((), generator=generator).item()  # bug: tensor_no_device_in_forward
        location[tag] = lo + (hi - lo) * t
    return location


class RandomLocation:
    def __init__(self, generator: Optional[torch.Generator] = None):
        self.generator = generator

    def __call__(self, sample):
        sample["location"] = random_location(sample["font_path"], sample.get("face", 0), self.generator)
        return sample


if __name__ == "__main__":
    gen = torch.Generator(device="cuda").manual_seed(5)
    transform = RandomLocation(gen)
    print(transform({"font_path": "Roboto[wdth,wght].ttf"}))
