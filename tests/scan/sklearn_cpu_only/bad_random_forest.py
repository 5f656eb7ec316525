import numpy as np
from sklearn.cluster import KMeans
from sklearn.ensemble import RandomForestClassifier

X = np.random.rand(2_000_000, 64)
y = (X[:, 0] > 0.5).astype(int)
clf = RandomForestClassifier(n_estimators=500, n_jobs=-1)
clf.fit(X, y)  # expect: code.sklearn_cpu_only
labels = KMeans(n_clusters=100).fit(X)  # expect: code.sklearn_cpu_only
