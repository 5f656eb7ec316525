# source: https://github.com/kamalkraj/BERT-NER/issues/43
# also: https://github.com/kamalkraj/BERT-NER/commit/6286a475b3f85ad595f37b27d1e0d2a31e6edf70
# kind: loaded_weights_not_moved
# bug: the NER inference wrapper loaded the fine-tuned BERT tagger with from_pretrained and never moved it to a device, so prediction always ran on the CPU even with a GPU present; the fix picks "cuda" when available, moves the loaded model there and builds the input tensors on the same device.
# split: test6
import json
import os

import torch
import torch.nn.functional as F
from transformers import BertForTokenClassification, BertTokenizer


class EntityTagger:
    def __init__(self, model_dir, config_name="model_config.json"):
        with open(os.path.join(model_dir, config_name)) as fh:
            self.config = json.load(fh)
        self.labels = {int(k): v for k, v in self.config["label_map"].items()}
        self.max_len = self.config["max_seq_length"]
        self.tokenizer = BertTokenizer.from_pretrained(model_dir, do_lower_case=self.config["do_lower"])
        self.model = BertForTokenClassification.from_pretrained(model_dir)  # bug: loaded_weights_not_moved
        self.model.eval()

    def encode(self, words):
        pieces, first = ["[CLS]"], [0]
        for word in words:
            toks = self.tokenizer.tokenize(word)
            first.append(len(pieces))
            pieces.extend(toks)
        pieces.append("[SEP]")
        ids = self.tokenizer.convert_tokens_to_ids(pieces)
        mask = [1] * len(ids)
        pad = self.max_len - len(ids)
        return ids + [0] * pad, mask + [0] * pad, first[1:]

    def predict(self, text):
        words = text.split()
        ids, mask, first = self.encode(words)
        ids = torch.tensor([ids], dtype=torch.long)
        mask = torch.tensor([mask], dtype=torch.long)
        with torch.no_grad():
            logits = self.model(input_ids=ids, attention_mask=mask).logits
        probs = F.softmax(logits, dim=2)[0]
        best = probs.argmax(dim=1).tolist()
        return [(w, self.labels[best[i] + 1], float(probs[i].max())) for w, i in zip(words, first)]


if __name__ == "__main__":
    tagger = EntityTagger("out_base")
    print(tagger.predict("Steve went to Paris"))
