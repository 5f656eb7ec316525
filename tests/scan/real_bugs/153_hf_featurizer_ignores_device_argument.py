# source: https://github.com/datamol-io/molfeat/pull/88
# also: https://github.com/datamol-io/molfeat/commit/40fe8ffead8ba6beac95567f6a838fb5405c8376
# kind: loaded_weights_not_moved
# bug: the pretrained Hugging Face molecule featurizer accepted a device argument but loaded its model with from_pretrained and never moved it (nor the tokenized inputs), so inference always ran on the CPU; the fix moves the loaded model and the inputs to the requested device.
# split: test5
import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer


class PretrainedSmilesEmbedder:
    def __init__(self, name="ChemBERTa-77M-MLM", device="cpu", max_length=128):
        self.name = name
        self.device = torch.device(device)
        self.max_length = max_length
        self.model = None
        self.tokenizer = None

    def _preload(self):
        if self.model is None:
            self.tokenizer = AutoTokenizer.from_pretrained(self.name)
            self.model = AutoModel.from_pretrained(self.name)  # bug: loaded_weights_not_moved
            self.model.eval()

    def _tokenize(self, smiles):
        return self.tokenizer(list(smiles), truncation=True, padding=True,
                              max_length=self.max_length, return_tensors="pt")

    def embed(self, smiles):
        self._preload()
        inputs = self._tokenize(smiles)
        mask = inputs["attention_mask"].unsqueeze(-1)
        with torch.no_grad():
            hidden = self.model(output_hidden_states=True, **inputs).hidden_states[-1]
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        return pooled.detach().cpu().numpy().astype(np.float32)


if __name__ == "__main__":
    print(PretrainedSmilesEmbedder(device="cuda").embed(["CCO", "c1ccccc1"]).shape)
