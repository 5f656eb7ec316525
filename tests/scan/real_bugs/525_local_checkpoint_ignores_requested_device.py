# source: https://github.com/unitaryai/detoxify/pull/54
# kind: other
# bug: the classifier wrapper took a device argument and passed it as map_location when downloading a released checkpoint, but a local checkpoint path was read with a bare torch.load(checkpoint), so a checkpoint trained on the GPU was deserialised onto CUDA regardless of the requested device (crashing on CPU-only machines and filling the wrong GPU); the fix passes map_location=device to torch.load too.
# split: test25
import torch
import torch.nn as nn

RELEASE_URLS = {
    "base": "https://example.invalid/releases/toxic_base.ckpt",
    "small": "https://example.invalid/releases/toxic_small.ckpt",
}


class TextClassifier(nn.Module):
    def __init__(self, vocab=1000, dim=32, num_classes=6):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, num_classes)

    def forward(self, ids):
        return self.fc(self.emb(ids))


def load_checkpoint(model_type="base", checkpoint=None, device="cpu"):
    if checkpoint is None:
        loaded = torch.hub.load_state_dict_from_url(RELEASE_URLS[model_type], map_location=device)
    else:
        loaded = torch.load(checkpoint)  # bug: other
        if "config" not in loaded or "state_dict" not in loaded:
            raise ValueError("checkpoint must contain its config and state dict")
    classes = loaded["config"]["classes"]
    model = TextClassifier(num_classes=len(classes))
    model.load_state_dict(loaded["state_dict"])
    return model, classes


class ToxicityScorer:
    def __init__(self, model_type="base", checkpoint=None, device="cpu"):
        self.model, self.class_names = load_checkpoint(model_type, checkpoint, device)
        self.device = device
        self.model.to(self.device)

    @torch.no_grad()
    def predict(self, ids):
        self.model.eval()
        out = self.model(ids.to(self.device))
        scores = torch.sigmoid(out).cpu().numpy()
        return {name: scores[:, i].tolist() for i, name in enumerate(self.class_names)}


if __name__ == "__main__":
    scorer = ToxicityScorer(checkpoint="trained_on_gpu.ckpt", device="cpu")
    print(scorer.predict(torch.randint(0, 1000, (2, 12))))
