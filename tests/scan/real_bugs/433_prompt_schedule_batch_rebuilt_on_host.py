# source: https://github.com/AUTOMATIC1111/stable-diffusion-webui/pull/707
# kind: host_alloc_per_step
# bug: at every sampling step the prompt-scheduling code rebuilt the batch of conditioning tensors into a torch.zeros buffer created on the CPU and copied the result to the GPU, which caused a high-CPU-usage regression; the fix allocates the buffer on the model's device with the model's dtype.
# split: test20
from collections import namedtuple

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

ScheduledPromptConditioning = namedtuple("ScheduledPromptConditioning", ["end_at_step", "cond"])
ScheduledPromptBatch = namedtuple("ScheduledPromptBatch", ["shape", "schedules"])


class TextEncoder(torch.nn.Module):
    def __init__(self, dim=768, tokens=77):
        super().__init__()
        self.tokens = tokens
        self.proj = torch.nn.Embedding(1000, dim)

    def get_learned_conditioning(self, texts):
        ids = torch.tensor([[hash(t + str(i)) % 1000 for i in range(self.tokens)] for t in texts], device=device)
        return self.proj(ids)


def get_learned_conditioning(model, prompt_schedules):
    res = []
    for schedule in prompt_schedules:
        conds = model.get_learned_conditioning([text for _, text in schedule])
        res.append([ScheduledPromptConditioning(end, conds[i]) for i, (end, _) in enumerate(schedule)])
    return ScheduledPromptBatch((len(prompt_schedules),) + res[0][0].cond.shape, res)


def reconstruct_cond_batch(c, current_step):
    res = torch.zeros(c.shape)  # bug: host_alloc_per_step
    for i, cond_schedule in enumerate(c.schedules):
        target_index = 0
        for current, (end_at, cond) in enumerate(cond_schedule):
            if current_step <= end_at:
                target_index = current
                break
        res[i] = cond_schedule[target_index].cond
    return res.to(device)


def sample(unet, cond_batch, steps=20):
    x = torch.randn(cond_batch.shape[0], 4, 64, 64, device=device)
    for step in range(steps):
        cond = reconstruct_cond_batch(cond_batch, step)
        x = x - 0.05 * unet(x) * cond.mean()
    return x


if __name__ == "__main__":
    with torch.no_grad():
        enc = TextEncoder().to(device)
        batch = get_learned_conditioning(enc, [[(8, "a castle"), (20, "a lake")], [(20, "a forest")]])
        unet = torch.nn.Conv2d(4, 4, 3, padding=1).to(device)
        print(sample(unet, batch).shape)
