# source: https://github.com/InseeFrLab/torchTextClassifiers/pull/94
# also: https://github.com/InseeFrLab/torchTextClassifiers/commit/bdbcf600d94a86d2739f32c75840061071d88a57
# kind: hardcoded_cpu
# bug: The classifier's predict() moved the trained model to the CPU with .eval().cpu() and built all its input tensors on the CPU, so GPU-trained models always predicted on the host; the fix keeps the model where it is and sends the inputs to the model's device.
# split: test
import torch
import torch.nn as nn


class TextClassifierWrapper:
    def __init__(self, model: nn.Module, tokenizer):
        self.model = model
        self.tokenizer = tokenizer

    def predict(self, texts, extra_features=None):
        self.model.eval().cpu()  # bug: hardcoded_cpu
        enc = self.tokenizer(texts)
        ids = enc["input_ids"]
        mask = enc["attention_mask"]
        if extra_features is not None:
            extra = torch.tensor(extra_features, dtype=torch.float32)
        else:
            extra = torch.empty((ids.shape[0], 0), dtype=torch.float32)
        with torch.no_grad():
            logits = self.model(ids, mask, extra)
        return logits.argmax(dim=-1).tolist()
