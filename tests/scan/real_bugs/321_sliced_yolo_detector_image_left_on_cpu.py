# source: https://github.com/kadirnar/Yolov6-SAHI/pull/4
# kind: inputs_not_moved
# bug: the sliced-inference wrapper loaded the YOLO detector onto `self.device` (and even warmed it up with a zeros tensor moved there), but `perform_inference` fed it the preprocessed slice straight from the letterbox helper, which builds a CPU tensor, so inference on CUDA failed with a device mismatch; the merged fix moves the image to `self.device` before the forward call (and adds `.cpu()` before `.numpy()` on the scores).
# split: test14
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def letterbox_to_tensor(image: np.ndarray, img_size=(640, 640), stride=32):
    h, w = image.shape[:2]
    r = min(img_size[0] / h, img_size[1] / w)
    nh, nw = int(round(h * r)), int(round(w * r))
    img = torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1))).float() / 255.0
    img = F.interpolate(img[None], size=(nh, nw), mode="bilinear", align_corners=False)
    ph, pw = (-nh) % stride, (-nw) % stride
    img = F.pad(img, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2), value=114 / 255.0)
    return img, img.shape[2:], image.shape[:2]


class TinyYolo(nn.Module):
    def __init__(self, num_classes=80):
        super().__init__()
        self.stride = 32
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, 4, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 8, 1), nn.SiLU())
        self.head = nn.Conv2d(32, 5 + num_classes, 1)

    def forward(self, x):
        return self.head(self.body(x)).flatten(2).transpose(1, 2)


class SlicedDetector:
    def __init__(self, weights: str, device="cuda:0", image_size=(640, 640), confidence_threshold=0.25):
        self.device, self.image_size, self.confidence_threshold = device, image_size, confidence_threshold
        self.model = TinyYolo()
        self.model.load_state_dict(torch.load(weights, map_location=device))
        self.model.to(device).eval()
        self.stride = self.model.stride
        if self.device != "cpu":
            self.model(torch.zeros(1, 3, *self.image_size).to(self.device))  # warmup

    @torch.no_grad()
    def perform_inference(self, image: np.ndarray):
        img, self.img_shape, self.src_shape = letterbox_to_tensor(image, self.image_size, self.stride)
        self._original_predictions = self.model(img)  # bug: inputs_not_moved

    def scores(self):
        pred = self._original_predictions[0]
        conf = pred[:, 4].sigmoid()
        return [float(c.cpu().numpy()) for c in conf[conf > self.confidence_threshold]]


if __name__ == "__main__":
    det = SlicedDetector("yolov6s.pt", device="cuda:0")
    tile = (np.random.rand(512, 512, 3) * 255).astype(np.uint8)
    det.perform_inference(tile)
    print(len(det.scores()))
