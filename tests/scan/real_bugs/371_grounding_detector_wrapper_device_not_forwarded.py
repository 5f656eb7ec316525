# source: https://github.com/IDEA-Research/GroundingDINO/issues/71
# also: https://github.com/IDEA-Research/GroundingDINO/pull/77
# kind: other
# bug: the object-oriented detector wrapper stored the user's device and loaded the model there, but its predict method called the legacy `predict()` helper without forwarding that device, so the helper's `device="cuda"` default moved the model and image to CUDA regardless of the choice (maintainers confirmed); the merged fix passes `device=self.device`.
# split: test17
import torch
import torch.nn as nn


class TinyGrounder(nn.Module):
    def __init__(self, dim=32, queries=50):
        super().__init__()
        self.backbone = nn.Conv2d(3, dim, 8, stride=8)
        self.query = nn.Embedding(queries, dim)
        self.box = nn.Linear(dim, 4)
        self.cls = nn.Linear(dim, 256)

    def forward(self, images):
        feats = self.backbone(images).flatten(2).mean(-1)
        q = self.query.weight[None] + feats[:, None]
        return {"pred_logits": self.cls(q), "pred_boxes": self.box(q).sigmoid()}


def predict(model, image, box_threshold, device="cuda"):
    model = model.to(device)
    image = image.to(device)
    with torch.no_grad():
        out = model(image[None])
    logits = out["pred_logits"].cpu().sigmoid()[0]
    boxes = out["pred_boxes"].cpu()[0]
    keep = logits.max(dim=1)[0] > box_threshold
    return boxes[keep], logits[keep].max(dim=1)[0]


class Detector:
    def __init__(self, checkpoint_path=None, device="cuda"):
        self.device = device
        self.model = TinyGrounder()
        if checkpoint_path:
            self.model.load_state_dict(torch.load(checkpoint_path, map_location="cpu"))
        self.model = self.model.eval().to(device)

    def predict_with_caption(self, image, box_threshold=0.35):
        processed = torch.as_tensor(image, dtype=torch.float32).permute(2, 0, 1) / 255.0
        return predict(model=self.model, image=processed, box_threshold=box_threshold)  # bug: other


if __name__ == "__main__":
    det = Detector(device="cpu")
    print(det.predict_with_caption(torch.randint(0, 255, (256, 256, 3)).numpy()))
