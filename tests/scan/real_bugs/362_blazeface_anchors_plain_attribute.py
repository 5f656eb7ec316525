# source: https://github.com/1adrianb/face-alignment/pull/200
# also: https://github.com/1adrianb/face-alignment/commit/ab91b045153a2d23f98f0a93ccb3854ef163e28b
# kind: attribute_not_buffer
# bug: the BlazeFace detector loaded its anchor table as a plain tensor attribute on the device of the parameters at load time (still the CPU), and only afterwards moved the network with `.to(device)`, which does not touch plain attributes, so box decoding mixed CUDA outputs with CPU anchors; the merged fix passes the target device into the anchor loader.
# split: test17
import numpy as np
import torch
import torch.nn as nn


class BlazeFace(nn.Module):
    def __init__(self, num_anchors=896):
        super().__init__()
        self.num_anchors = num_anchors
        self.x_scale = 128.0
        self.backbone = nn.Sequential(nn.Conv2d(3, 24, 5, stride=2, padding=2), nn.ReLU(), nn.Conv2d(24, 32, 3, padding=1))
        self.regressor = nn.Conv2d(32, 16, 1)
        self.classifier = nn.Conv2d(32, 1, 1)

    def _device(self):
        return self.classifier.weight.device

    def load_anchors_from_npy(self, arr):
        self.anchors = torch.tensor(arr, dtype=torch.float32, device=self._device())  # bug: attribute_not_buffer
        assert self.anchors.shape == (self.num_anchors, 4)

    def _decode_boxes(self, raw_boxes, anchors):
        x_center = raw_boxes[..., 0] / self.x_scale * anchors[:, 2] + anchors[:, 0]
        y_center = raw_boxes[..., 1] / self.x_scale * anchors[:, 3] + anchors[:, 1]
        w = raw_boxes[..., 2] / self.x_scale * anchors[:, 2]
        h = raw_boxes[..., 3] / self.x_scale * anchors[:, 3]
        return torch.stack([y_center - h / 2, x_center - w / 2, y_center + h / 2, x_center + w / 2], dim=-1)

    def predict_on_batch(self, x):
        x = x.to(self._device())
        with torch.no_grad():
            feats = self.backbone(x)
            boxes = self.regressor(feats).flatten(2).transpose(1, 2)[:, : self.num_anchors]
            scores = self.classifier(feats).flatten(1)[:, : self.num_anchors].sigmoid()
        return self._decode_boxes(boxes, self.anchors), scores


class BlazeFaceDetector:
    def __init__(self, device, path_to_detector, path_to_anchor):
        self.device = device
        self.face_detector = BlazeFace()
        self.face_detector.load_state_dict(torch.load(path_to_detector))
        self.face_detector.load_anchors_from_npy(np.load(path_to_anchor))
        self.face_detector.to(device)
        self.face_detector.eval()

    def detect_from_batch(self, tensor):
        return self.face_detector.predict_on_batch(tensor)


if __name__ == "__main__":
    detector = BlazeFaceDetector("cuda", "blazeface.pth", "anchors.npy")
    print(detector.detect_from_batch(torch.rand(2, 3, 128, 128)))
