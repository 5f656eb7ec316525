# source: https://github.com/stephenhky/PyShortTextCategorization/pull/110
# also: https://github.com/stephenhky/PyShortTextCategorization/commit/35eae4dd3109afa6b0a3d268784537361df2a324
# kind: inputs_not_moved
# bug: the BERT sentence encoder put the model on self.device but built the token-id and segment tensors on the CPU (torch.cat of tokenizer output, LongTensor from numpy) and fed them in; the fix moved both to self.device.
# split: dev2
import numpy as np
import torch
from transformers import BertModel, BertTokenizer


class SentenceVectors:
    def __init__(self, name="bert-base-uncased", device="cpu"):
        self.device = torch.device("cuda" if device == "cuda" and torch.cuda.is_available() else "cpu")
        self.tok = BertTokenizer.from_pretrained(name)
        self.bert = BertModel.from_pretrained(name).to(self.device)
        self.bert.eval()

    def encode(self, sentences, max_len=48):
        rows = [self.tok.encode(s, add_special_tokens=True, max_length=max_len,
                                padding="max_length", truncation=True, return_tensors="pt")
                for s in sentences]
        ids = torch.cat(rows, dim=0)
        segs = torch.LongTensor(np.array(ids > 0))
        with torch.no_grad():
            out = self.bert(ids, segs)  # bug: inputs_not_moved
        return out.pooler_output


if __name__ == "__main__":
    print(SentenceVectors(device="cuda").encode(["hello there", "short text"]).shape)
