# source: https://github.com/meta-pytorch/torchtune/pull/2276
# also: https://github.com/meta-pytorch/torchtune/commit/7747db1341375aac21fc4b938f6846e72ca75b7c
# kind: tensor_no_device_in_forward
# bug: the early-fusion multimodal model's token embedding step built the list of encoder special-token ids with `torch.tensor(list(...))`, i.e. on the CPU, and passed it to `torch.isin` against the CUDA token batch in every forward, so fine-tuning on a GPU failed with a device mismatch; the merged fix creates the ids with `device=tokens.device`.
# split: test14
from typing import Dict, Optional

import torch
import torch.nn as nn


class EarlyFusion(nn.Module):
    def __init__(self, decoder: nn.Module, tok_embeddings: nn.Embedding,
                 encoders: Dict[str, nn.Module], encoder_tokens: Dict[str, int]):
        super().__init__()
        self.decoder = decoder
        self.tok_embeddings = tok_embeddings
        self.encoders = nn.ModuleDict(encoders)
        self.encoder_tokens = encoder_tokens

    def _text_embed(self, tokens):
        encoder_token_ids = torch.tensor(list(self.encoder_tokens.values()))  # bug: tensor_no_device_in_forward
        is_text = ~torch.isin(tokens, encoder_token_ids)
        text_embeds = self.tok_embeddings(torch.masked_select(tokens, is_text))
        return is_text, text_embeds

    def forward(self, tokens, encoder_input: Optional[Dict[str, torch.Tensor]] = None):
        bsz, seq_len = tokens.shape
        is_text, text_embeds = self._text_embed(tokens)
        embeds = torch.empty(bsz, seq_len, text_embeds.shape[-1], dtype=text_embeds.dtype, device=tokens.device)
        embeds[is_text] = text_embeds
        for name, encoder in self.encoders.items():
            if encoder_input is None or name not in encoder_input:
                continue
            enc = encoder(encoder_input[name]).flatten(0, 1)
            embeds[tokens == self.encoder_tokens[name]] = enc
        return self.decoder(embeds)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dim, vocab, image_tok = 256, 1000, 999
    model = EarlyFusion(
        decoder=nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, batch_first=True), 2),
        tok_embeddings=nn.Embedding(vocab, dim),
        encoders={"image": nn.Sequential(nn.Flatten(2), nn.Linear(48, dim))},
        encoder_tokens={"image": image_tok},
    ).to(device)
    tokens = torch.randint(0, 998, (2, 32), device=device)
    tokens[:, :4] = image_tok
    images = torch.randn(2, 4, 3, 16, device=device)
    out = model(tokens, {"image": images})
