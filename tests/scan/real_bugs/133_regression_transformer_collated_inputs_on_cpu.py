# source: https://github.com/GT4SD/gt4sd-core/pull/111
# also: https://github.com/GT4SD/gt4sd-core/commit/7177df85534824b6fc7eeb6ba317a29e1e2fdf36
# kind: inputs_not_moved
# bug: the Regression Transformer generator put its XLNet model on self.device but passed the collator's CPU tensor dict straight to it in prediction and generation, so inference failed whenever CUDA was available; the fix maps every tensor in the dict to self.device first.
# split: test4
import torch
from transformers import AutoModelWithLMHead


class PropertyPredictor:
    def __init__(self, model_dir, tokenizer, collator, device="cuda"):
        self.device = torch.device(device)
        self.tokenizer = tokenizer
        self.collator = collator
        self.model = AutoModelWithLMHead.from_pretrained(model_dir).to(self.device)
        self.model.eval()

    def _encode(self, text):
        ids = self.tokenizer(text)["input_ids"]
        return self.collator([ids])

    @torch.no_grad()
    def predict(self, text):
        inputs = self._encode(text)
        outputs = self.model(**inputs)  # bug: inputs_not_moved
        best = outputs.logits.argmax(dim=-1)
        return self.tokenizer.decode(best[0].tolist())

    @torch.no_grad()
    def fill(self, text):
        inputs = self._encode(text)
        ids = inputs["input_ids"].clone()
        outputs = self.model(**{k: v.to(self.device) for k, v in inputs.items()})
        ids[ids == self.tokenizer.mask_token_id] = outputs.logits.argmax(-1).cpu()[ids == self.tokenizer.mask_token_id]
        return self.tokenizer.decode(ids[0].tolist())
