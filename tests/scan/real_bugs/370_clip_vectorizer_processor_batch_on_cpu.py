# source: https://github.com/weaviate/multi2vec-clip-inference/issues/9
# also: https://github.com/weaviate/multi2vec-clip-inference/pull/10
# kind: inputs_not_moved
# bug: the CLIP vectorizer service moved its model to the configured CUDA core in `__init__`, but `vectorize()` fed the processor's freshly built CPU tensors straight into the text and vision towers; the fix keeps the device on `self` and moves the processor output to it.
# split: test17
import torch
import torch.nn as nn


class TinyClip(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.patch = nn.Conv2d(3, dim, kernel_size=16, stride=16)
        self.proj = nn.Linear(dim, dim)

    def text_features(self, input_ids):
        return self.proj(self.tok(input_ids).mean(1))

    def image_features(self, pixel_values):
        return self.proj(self.patch(pixel_values).flatten(2).mean(-1))


def process(texts=None, images=None):
    out = {}
    if texts:
        width = max(len(t.split()) for t in texts)
        ids = [[hash(w) % 1000 for w in t.split()] + [0] * (width - len(t.split())) for t in texts]
        out["input_ids"] = torch.tensor(ids)
    if images:
        out["pixel_values"] = torch.stack([torch.as_tensor(im, dtype=torch.float32) for im in images])
    return out


class ClipVectorizer:
    def __init__(self, cuda, cuda_core="cuda:0"):
        device = "cpu"
        if cuda:
            device = cuda_core
        self.model = TinyClip().to(device)

    @torch.no_grad()
    def vectorize(self, texts, images):
        text_vectors, image_vectors = [], []
        if texts:
            inputs = process(texts=texts)  # bug: inputs_not_moved
            text_vectors = self.model.text_features(inputs["input_ids"]).tolist()
        if images:
            inputs = process(images=images)
            image_vectors = self.model.image_features(inputs["pixel_values"]).tolist()
        return text_vectors, image_vectors


if __name__ == "__main__":
    vec = ClipVectorizer(cuda=torch.cuda.is_available())
    print(len(vec.vectorize(["a red car", "a small dog"], [torch.rand(3, 224, 224).numpy()])[0]))
