# source: https://github.com/IDEA-Research/Grounded-Segment-Anything/issues/307
# also: https://github.com/IDEA-Research/Grounded-Segment-Anything/commit/bb8ce183dc79111b9907396741ecfdcf08a1c2c4
# kind: loaded_weights_not_moved
# bug: the detect-then-segment demo chose `DEVICE = cuda if available` and used it for the box detector, but built the segmentation model from its checkpoint and wrapped it in the predictor without ever moving it, so the predictor (which follows the model's device) encoded every image on the CPU; the merged fix adds `sam.to(device=DEVICE)`.
# split: test17
import numpy as np
import torch
import torch.nn as nn
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TinySegmenter(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, dim, 16, 16), nn.GELU(), nn.Conv2d(dim, dim, 3, padding=1))
        self.prompt = nn.Linear(4, dim)
        self.decoder = nn.ConvTranspose2d(dim, 3, 16, 16)


def build_segmenter(checkpoint=None):
    model = TinySegmenter()
    if checkpoint is not None:
        model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    return model.eval()


class Predictor:
    def __init__(self, model):
        self.model = model
        self.device = next(model.parameters()).device

    @torch.no_grad()
    def set_image(self, image):
        x = torch.as_tensor(image, device=self.device).permute(2, 0, 1)[None].float() / 255.0
        self.features = self.model.encoder(x)

    @torch.no_grad()
    def predict(self, box):
        p = self.model.prompt(torch.as_tensor(box, dtype=torch.float32, device=self.device))
        masks = self.model.decoder(self.features * p[None, :, None, None])[0]
        return masks.sigmoid() > 0.5, masks.mean(dim=(1, 2))


detector = nn.Linear(3, 4).to(DEVICE)
sam = build_segmenter(checkpoint=None)  # bug: loaded_weights_not_moved
sam_predictor = Predictor(sam)


def segment(image, boxes):
    sam_predictor.set_image(image)
    result = []
    for box in boxes:
        masks, scores = sam_predictor.predict(box)
        result.append(masks[int(scores.argmax())].cpu().numpy())
    return np.array(result)


if __name__ == "__main__":
    img = np.random.randint(0, 255, (512, 512, 3), dtype=np.uint8)
    print(segment(img, [[10, 10, 200, 200], [100, 50, 400, 300]]).shape)
