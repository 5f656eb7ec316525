# source: https://github.com/jwkanggist/tf-tiny-pose-estimation/pull/5
# also: https://github.com/jwkanggist/tf-tiny-pose-estimation/commit/91aa48de57ad779b04cbb9396a47c94f5557fe64
# kind: hardcoded_cpu
# bug: (TF 1.x) the pose-estimation trainer built the whole model, loss, learning-rate schedule and optimizer under tf.device('/device:CPU:0'), so training ran on the CPU even on GPU machines; the fix ("remove tf.device") drops the pin and lets TensorFlow place the ops.
# split: test2
import numpy as np
import tensorflow as tf

from posenet.model import HeatmapNet
from posenet.config import ModelConfig, TrainConfig


def train(dataset_train, dataset_test, cfg=ModelConfig(), tcfg=TrainConfig()):
    images = tf.placeholder(tf.float32, [tcfg.batch_size, cfg.in_size, cfg.in_size, 3])
    heatmaps = tf.placeholder(tf.float32, [tcfg.batch_size, cfg.out_size, cfg.out_size, cfg.n_joints])

    with tf.device("/device:CPU:0"):  # bug: hardcoded_cpu
        pred = HeatmapNet(cfg).build(images, scope="model")
        loss = tf.nn.l2_loss(heatmaps - pred) / tcfg.batch_size + tf.losses.get_regularization_loss()
        step = tf.Variable(0, trainable=False)
        lr = tf.train.exponential_decay(tcfg.lr, step, tcfg.decay_steps, tcfg.decay_rate, staircase=True)
        train_op = tf.train.AdamOptimizer(lr).minimize(loss, step)

    n_batches = int(np.floor(tcfg.train_size / tcfg.batch_size))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(tcfg.epochs):
            for _ in range(n_batches):
                x, y = dataset_train.next_batch()
                _, l = sess.run([train_op, loss], feed_dict={images: x, heatmaps: y})
            print(epoch, l)
