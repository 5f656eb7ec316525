# source: https://github.com/EricFillion/happy-transformer/pull/145
# kind: model_not_moved
# bug: the wrapper computed a CUDA device when one was available but lazily loaded the masked-language model and built the token tensors without ever moving them, so mask prediction always ran on the CPU; the fix moves the model and the token/segment tensors to CUDA when GPU support is detected.
# split: test20
import torch
import torch.nn as nn


class TinyMaskedLM(nn.Module):
    def __init__(self, vocab_size=1000, dim=64):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.seg = nn.Embedding(2, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 128, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.lm_head = nn.Linear(dim, vocab_size)

    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def forward(self, input_ids, token_type_ids=None):
        h = self.tok(input_ids)
        if token_type_ids is not None:
            h = h + self.seg(token_type_ids)
        return self.lm_head(self.encoder(h))


class HappyTransformer:
    def __init__(self, model_name="bert-base-uncased"):
        self.model_name = model_name
        self.mlm = None
        self.gpu_support = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def _get_masked_language_model(self):
        self.mlm = TinyMaskedLM.from_pretrained(self.model_name)  # bug: model_not_moved
        self.mlm.eval()

    def _tokenize(self, text):
        return [hash(w) % 1000 for w in text.lower().split()]

    def predict_mask(self, text, mask_index, num_results=3):
        if self.mlm is None:
            self._get_masked_language_model()
        indexed_tokens = self._tokenize(text)
        tokens_tensor = torch.tensor([indexed_tokens])
        segments_tensors = torch.zeros_like(tokens_tensor)
        with torch.no_grad():
            logits = self.mlm(tokens_tensor, token_type_ids=segments_tensors)
        probs = torch.softmax(logits[0, mask_index], dim=-1)
        scores, ids = probs.topk(num_results)
        return list(zip(ids.tolist(), scores.tolist()))


if __name__ == "__main__":
    happy = HappyTransformer()
    print(happy.predict_mask("the quick brown [MASK] jumps over", 3))
