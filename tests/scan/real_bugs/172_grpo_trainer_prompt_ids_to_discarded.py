# source: https://github.com/dhcode-cpp/X-R1/issues/9
# also: https://github.com/dhcode-cpp/X-R1/commit/4ab7d7391119414d8ee236e24ce942ff6f1a7aa0
# kind: to_result_discarded
# bug: in the GRPO trainer's regular (non-vLLM) generation path, prompt_inputs["input_ids"].to(device) and prompt_inputs["attention_mask"].to(device) were called without assigning the results, so the tokenized prompts stayed on the CPU when passed to generate(); the maintainer's commit assigns them back into prompt_inputs.
# split: test6
import torch
import torch.nn.functional as F


class GroupRelativeTrainer:
    def __init__(self, model, tokenizer, reward_fn, generation_config, max_prompt_length=512):
        self.model = model
        self.tokenizer = tokenizer
        self.reward_fn = reward_fn
        self.generation_config = generation_config
        self.max_prompt_length = max_prompt_length

    def _token_logps(self, input_ids, keep):
        logits = self.model(input_ids).logits[:, :-1, :]
        logps = logits[:, -keep:].log_softmax(dim=-1)
        return torch.gather(logps, 2, input_ids[:, -keep:].unsqueeze(-1)).squeeze(-1)

    def compute_loss(self, prompts, device):
        prompt_inputs = self.tokenizer(prompts, return_tensors="pt", padding=True, padding_side="left")
        prompt_inputs["input_ids"] = prompt_inputs["input_ids"][:, -self.max_prompt_length:]
        prompt_inputs["attention_mask"] = prompt_inputs["attention_mask"][:, -self.max_prompt_length:]
        with torch.no_grad():
            prompt_inputs["input_ids"].to(device)  # bug: to_result_discarded
            prompt_inputs["attention_mask"].to(device)  # bug: to_result_discarded
            full_ids = self.model.generate(**prompt_inputs, generation_config=self.generation_config)
        prompt_len = prompt_inputs["input_ids"].size(1)
        completion_ids = full_ids[:, prompt_len:]
        logps = self._token_logps(full_ids, completion_ids.size(1))
        texts = self.tokenizer.batch_decode(completion_ids, skip_special_tokens=True)
        rewards = torch.tensor([self.reward_fn(t) for t in texts], device=device)
        adv = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
        return -(logps.sum(dim=1) * adv).mean()
