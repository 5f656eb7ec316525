# source: https://github.com/cisnlp/simalign/issues/16
# kind: inputs_not_moved
# bug: With device set to cuda the aligner moved its embedding model to the GPU but passed the tokenizer's CPU tensors straight into it; the maintainer fixed it by moving the tokenized inputs to the configured device.
# split: dev
import torch
from transformers import AutoModel, AutoTokenizer


class WordAligner:
    def __init__(self, name="bert-base-multilingual-cased", device="cuda", layer=8):
        self.device = torch.device(device)
        self.tok = AutoTokenizer.from_pretrained(name)
        self.enc = AutoModel.from_pretrained(name, output_hidden_states=True).to(self.device)
        self.enc.eval()
        self.layer = layer

    def embed_pair(self, src_words, tgt_words):
        batch = self.tok([src_words, tgt_words], is_split_into_words=True,
                         padding=True, truncation=True, return_tensors="pt")
        with torch.no_grad():
            states = self.enc(**batch).hidden_states[self.layer]  # bug: inputs_not_moved
        return states[:, 1:-1, :]

    def similarity(self, src_words, tgt_words):
        e = self.embed_pair(src_words, tgt_words)
        a = torch.nn.functional.normalize(e[0], dim=-1)
        b = torch.nn.functional.normalize(e[1], dim=-1)
        return a @ b.t()
