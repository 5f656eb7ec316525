# source: https://github.com/NLPatVCU/medaCy/pull/175
# also: https://github.com/NLPatVCU/medaCy/commit/7beeee51077e23c164e1f3abca50b3280d9701fa
# kind: loaded_weights_not_moved
# bug: the BERT tagger's load() rebuilt the model with from_pretrained and left it on the CPU, while its vectorizer produced inputs on self.device for prediction; the fix moved the loaded model to self.device.
# split: dev2
import torch
from transformers import BertForTokenClassification, BertTokenizer

from vectorizer import TagVectorizer


class BertTagger:
    def __init__(self, cuda_device: int = -1, base="bert-base-cased"):
        self.device = torch.device("cpu" if cuda_device < 0 else f"cuda:{cuda_device}")
        self.base = base
        self.model = self.tok = self.vec = None

    def load(self, path: str):
        self.tok = BertTokenizer.from_pretrained(self.base)
        self.vec = TagVectorizer(device=self.device)
        self.vec.load_values(torch.load(path + "/vectorizer.pt"))
        self.model = BertForTokenClassification.from_pretrained(  # bug: loaded_weights_not_moved
            path, num_labels=len(self.vec.tag_to_index) - 1)

    def predict(self, sentences):
        self.model.eval()
        out = []
        with torch.no_grad():
            for words in sentences:
                ids, mask = self.vec.vectorize(words, self.tok)
                logits = self.model(ids, attention_mask=mask)[0]
                out.append(self.vec.devectorize(logits.argmax(-1)[0]))
        return out
