# A predictor class that moves its model to its device and feeds it what the data collator makes
# (tensors on the CPU) without moving them.
import torch
from transformers import AutoModelForMaskedLM


class Filler:
    def __init__(self, path, tokenizer, collator, device="cuda"):
        self.device = torch.device(device)
        self.tokenizer = tokenizer
        self.collator = collator
        self.model = AutoModelForMaskedLM.from_pretrained(path).to(self.device)

    def encode(self, text):
        return self.collator([self.tokenizer(text)["input_ids"]])

    @torch.no_grad()
    def fill(self, text):
        inputs = self.encode(text)
        logits = self.model(**inputs).logits  # expect: code.inputs_not_moved
        return logits.argmax(-1)

    @torch.no_grad()
    def fill_moved(self, text):
        inputs = {k: v.to(self.device) for k, v in self.encode(text).items()}
        return self.model(**inputs).logits.argmax(-1)
