# source: https://github.com/bghira/SimpleTuner/pull/629
# also: https://github.com/bghira/SimpleTuner/commit/721de64c39308b7e5468e8e80a0cf5e0f1b6c081
# kind: inputs_not_moved
# bug: the Flux validation pipeline built its latents, position ids and text ids on the pipeline's execution device, which could be the CPU while the transformer sat on CUDA, and passed them to the transformer unchanged, so validation randomly failed with a device mismatch; the merged fix moves latents, ids, timesteps and prompt embeddings to `self.transformer.device` before the denoising loop.
# split: test16
import torch
import torch.nn as nn


class TinyFluxTransformer(nn.Module):
    def __init__(self, channels=16, text_dim=32):
        super().__init__()
        self.img_in = nn.Linear(channels, 64)
        self.txt_in = nn.Linear(text_dim, 64)
        self.pos = nn.Linear(3, 64)
        self.out = nn.Linear(64, channels)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, hidden_states, timestep, encoder_hidden_states, txt_ids, img_ids):
        h = self.img_in(hidden_states) + self.pos(img_ids)
        c = self.txt_in(encoder_hidden_states) + self.pos(txt_ids)
        h = h + c.mean(dim=1, keepdim=True) + timestep.view(-1, 1, 1)
        return self.out(h)


class ValidationPipeline:
    def __init__(self, transformer, execution_device="cpu"):
        self.transformer = transformer
        self._execution_device = torch.device(execution_device)

    @torch.no_grad()
    def __call__(self, prompt_embeds, num_steps=4, seq_len=256):
        device = self._execution_device
        batch = prompt_embeds.shape[0]
        text_ids = torch.zeros(prompt_embeds.shape[1], 3, device=device)
        latent_image_ids = torch.zeros(seq_len, 3, device=device)
        latents = torch.randn(batch, seq_len, 16, device=device)
        timesteps = torch.linspace(1.0, 0.0, num_steps, device=device)
        for t in timesteps:
            noise_pred = self.transformer(
                hidden_states=latents,
                timestep=t.expand(batch),
                encoder_hidden_states=prompt_embeds,
                txt_ids=text_ids,  # bug: inputs_not_moved
                img_ids=latent_image_ids,
            )
            latents = latents - noise_pred / num_steps
        return latents


if __name__ == "__main__":
    transformer = TinyFluxTransformer().to("cuda")
    pipe = ValidationPipeline(transformer, execution_device="cpu")
    print(pipe(torch.randn(1, 77, 32)).shape)
