# source: https://github.com/TransformerLensOrg/TransformerLens/issues/306
# also: https://github.com/TransformerLensOrg/TransformerLens/pull/307
# kind: model_not_moved
# bug: the hooked BERT-style encoder called `self.to(device)` in `__init__` before its embedding, blocks and head were created, so the parameters built afterwards stayed on the CPU while inputs were sent to the configured CUDA device and the GPU tests failed; the fix moves `self.to(device)` to the end of `__init__`, after the parameters are initialised.
# split: test9
import torch
import torch.nn as nn

from lensutil.config import EncoderConfig
from lensutil.components import BertBlock, BertEmbed, BertMLMHead, Unembed
from lensutil.hooks import HookedRootModule, HookPoint


class HookedEncoder(HookedRootModule):
    def __init__(self, cfg, tokenizer=None, move_to_device=True):
        super().__init__()
        self.cfg = cfg if isinstance(cfg, EncoderConfig) else EncoderConfig(**cfg)
        self.tokenizer = tokenizer
        if move_to_device:
            self.to(self.cfg.device)  # bug: model_not_moved

        self.embed = BertEmbed(self.cfg)
        self.blocks = nn.ModuleList([BertBlock(self.cfg) for _ in range(self.cfg.n_layers)])
        self.mlm_head = BertMLMHead(self.cfg)
        self.unembed = Unembed(self.cfg)
        self.hook_full_embed = HookPoint()
        self.setup()

    def forward(self, input_ids, token_type_ids=None, one_zero_attention_mask=None):
        tokens = input_ids.to(self.cfg.device)
        if token_type_ids is not None:
            token_type_ids = token_type_ids.to(self.cfg.device)
        resid = self.hook_full_embed(self.embed(tokens, token_type_ids))
        mask = None
        if one_zero_attention_mask is not None:
            mask = (1 - one_zero_attention_mask.to(self.cfg.device))[:, None, None, :] * -torch.inf
        for block in self.blocks:
            resid = block(resid, mask)
        return self.unembed(self.mlm_head(resid))


if __name__ == "__main__":
    cfg = dict(d_model=128, n_layers=2, n_heads=4, d_head=32, d_mlp=512, d_vocab=1000, n_ctx=64,
               device="cuda" if torch.cuda.is_available() else "cpu")
    model = HookedEncoder(cfg)
    logits = model(torch.randint(0, 1000, (2, 16)))
