"""Retrieval shared by the lessons: BM25, dense vectors, Reciprocal Rank Fusion, metrics.

Lesson 06 ranks tools with it (`wirelab.tool_retrieval`) and lesson 12 ranks passages
(`wirelab.kb`); both import from here and nothing here imports a lesson's module.

- `lexical`: the tokenizer (English stems, jieba words for Chinese) and `BM25Index`;
- `dense`: `VectorIndex`, cosine ranking over the course's sentence encoder
  (`wirelab.encoder`) or over character n-grams;
- `fusion`: `reciprocal_rank_fusion` of several rankings;
- `metrics`: hit@k, recall, Mean Reciprocal Rank.
"""
