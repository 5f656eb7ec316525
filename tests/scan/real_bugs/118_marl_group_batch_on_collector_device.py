# source: https://github.com/facebookresearch/BenchMARL/pull/214
# also: https://github.com/facebookresearch/BenchMARL/commit/6d64afb1871f144e6b85a63fdf7385c111711cc1
# kind: inputs_not_moved
# bug: with separate sampling and training devices, the experiment loop handed each group's collected batch (still on the sampling device, e.g. the CPU) to the algorithm's `process_batch`, whose modules live on `train_device` (issue #213); the fix moves the excluded group batch with `.to(self.config.train_device)`.
# split: test3
import time


class Experiment:
    def __init__(self, config, algorithm, collector, replay_buffers, group_map):
        self.config = config
        self.algorithm = algorithm
        self.collector = collector
        self.replay_buffers = replay_buffers
        self.group_map = group_map

    def _excluded_keys(self, group):
        return [g for g in self.group_map if g != group]

    def run(self, n_iters):
        for it, batch in zip(range(n_iters), self.collector):
            start = time.time()
            for group in self.group_map:
                group_batch = batch.exclude(*self._excluded_keys(group))
                group_batch = self.algorithm.process_batch(group, group_batch)  # bug: inputs_not_moved
                group_batch = group_batch.reshape(-1)
                self.replay_buffers[group].extend(group_batch.to(self.config.buffer_device))
                for _ in range(self.config.optim_steps):
                    sub = self.replay_buffers[group].sample().to(self.config.train_device)
                    self.algorithm.optimise(group, sub)
            self.collector.update_policy_weights_()
            print(f"iter {it}: {time.time() - start:.2f}s")
