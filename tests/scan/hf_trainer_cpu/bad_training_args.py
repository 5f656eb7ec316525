from transformers import Trainer, TrainingArguments

args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=16,
    no_cuda=True,  # expect: code.hf_trainer_cpu
)
debug_args = TrainingArguments(output_dir="dbg", use_cpu=True)  # expect: code.hf_trainer_cpu
trainer = Trainer(model=None, args=args)
