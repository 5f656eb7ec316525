# source: https://github.com/unit8co/darts/issues/3052
# also: https://github.com/unit8co/darts/pull/3053
# kind: attribute_not_buffer
# bug: the temporal-fusion module cached its causal attention mask and relative time index as plain attributes (initialised to `None` in `__init__` and rebuilt in `forward` on the input's device only when the batch size changed), so after training on the GPU and moving the module to another device the stale cached tensors stayed behind and the attention failed with a device mismatch; the fix registers both as non-persistent buffers so `.to()` moves them.
# split: test12
import torch
import torch.nn as nn


class FusionForecaster(nn.Module):
    def __init__(self, n_features, hidden=32, input_len=24, output_len=12, add_relative_index=True):
        super().__init__()
        self.input_len = input_len
        self.output_len = output_len
        self.add_relative_index = add_relative_index
        extra = 1 if add_relative_index else 0
        self.embed = nn.Linear(n_features + extra, hidden)
        self.attn = nn.MultiheadAttention(hidden, 4, batch_first=True)
        self.head = nn.Linear(hidden, 1)
        self.batch_size_last = -1
        self.attention_mask = None  # bug: attribute_not_buffer
        self.relative_index = None

    @staticmethod
    def future_mask(enc_len, dec_len, device):
        total = enc_len + dec_len
        causal = torch.triu(torch.ones(dec_len, total, dtype=torch.bool, device=device), diagonal=enc_len + 1)
        return causal

    @staticmethod
    def relative_positions(enc_len, dec_len, batch_size, dtype, device):
        idx = torch.arange(enc_len + dec_len, dtype=dtype, device=device) / (enc_len - 1)
        return idx.view(1, -1, 1).repeat(batch_size, 1, 1)

    def forward(self, past, future):
        device = past.device
        batch_size = past.shape[0]
        if batch_size != self.batch_size_last:
            self.attention_mask = self.future_mask(self.input_len, self.output_len, device)
            if self.add_relative_index:
                self.relative_index = self.relative_positions(
                    self.input_len, self.output_len, batch_size, past.dtype, device
                )
            self.batch_size_last = batch_size
        x = torch.cat([past, future], dim=1)
        if self.add_relative_index:
            x = torch.cat([x, self.relative_index], dim=-1)
        h = self.embed(x)
        query = h[:, -self.output_len:]
        out, _ = self.attn(query, h, h, attn_mask=self.attention_mask)
        return self.head(out)


if __name__ == "__main__":
    model = FusionForecaster(n_features=3).to("cuda")
    past, future = torch.randn(8, 24, 3, device="cuda"), torch.randn(8, 12, 3, device="cuda")
    model(past, future)
    model = model.to("cpu")
    print(model(past.cpu(), future.cpu()).shape)
