# source: https://github.com/sherjilozair/char-rnn-tensorflow/pull/80
# kind: hardcoded_cpu
# bug: The char-RNN model wrapped its embedding variable and lookup in tf.device("/cpu:0"), forcing that work onto the host even on a GPU machine; the merged change drops the pin because the embedding op has a GPU kernel, which trained 5-10% faster.
# split: dev
import tensorflow as tf


class CharModel:
    def __init__(self, vocab_size=96, rnn_size=128, seq_len=50, batch=32):
        tf1 = tf.compat.v1
        tf1.disable_eager_execution()
        self.inputs = tf1.placeholder(tf.int32, [batch, seq_len])
        self.targets = tf1.placeholder(tf.int32, [batch, seq_len])
        cell = tf1.nn.rnn_cell.LSTMCell(rnn_size)
        with tf.device("/cpu:0"):  # bug: hardcoded_cpu
            table = tf1.get_variable("char_table", [vocab_size, rnn_size])
            emb = tf.nn.embedding_lookup(table, self.inputs)
        outputs, _ = tf1.nn.dynamic_rnn(cell, emb, dtype=tf.float32)
        logits = tf1.layers.dense(outputs, vocab_size)
        self.loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.targets, logits=logits)
        )
        self.train_op = tf1.train.AdamOptimizer(2e-3).minimize(self.loss)
