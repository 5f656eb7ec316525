# source: https://github.com/huggingface/setfit/pull/175
# also: https://github.com/huggingface/setfit/commit/798c7805de8ad4a9775cd4bc6bf956654c031243
# kind: model_not_moved
# bug: when building the few-shot classifier, the differentiable head was created directly on the body's target (CUDA) device, but the sentence-embedding body itself was never moved there (it only moved lazily inside encode), so the torch training loop ran the CPU body and fed its output to the CUDA head; the fix moves the body to its target device right after loading.
# split: test18
import torch
import torch.nn as nn


class SentenceBody(nn.Module):
    def __init__(self, vocab=3000, dim=128):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.target_device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, features):
        return self.emb(features["input_ids"])

    @torch.no_grad()
    def encode(self, batch_ids):
        self.to(self.target_device)
        return self({"input_ids": batch_ids.to(self.target_device)}).cpu()


class ClassifierHead(nn.Module):
    def __init__(self, in_features, out_features=2, device=None):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.to(device or "cpu")

    def forward(self, x):
        return self.linear(x)


class FewShotModel:
    def __init__(self, body, head):
        self.body = body
        self.head = head

    @classmethod
    def from_pretrained(cls, path, num_classes=2):
        body = SentenceBody()  # bug: model_not_moved
        body.load_state_dict(torch.load(path, map_location="cpu"))
        head = ClassifierHead(128, num_classes, device=body.target_device)
        return cls(body, head)

    def fit(self, loader, epochs=3):
        device = self.body.device
        params = list(self.body.parameters()) + list(self.head.parameters())
        opt = torch.optim.AdamW(params, lr=2e-5)
        loss_fn = nn.CrossEntropyLoss()
        for _ in range(epochs):
            for ids, labels in loader:
                feats = {"input_ids": ids.to(device)}
                logits = self.head(self.body(feats))
                loss = loss_fn(logits, labels.to(device))
                opt.zero_grad()
                loss.backward()
                opt.step()
