# A helper image for data preparation: latest tags everywhere (GL101).
FROM python:latest AS prep
RUN pip install pandas pyarrow

# nvidia/cuda publishes no latest: this pull fails (GL101 error)
FROM nvidia/cuda
COPY --from=prep /usr/local/lib/python3.12 /usr/local/lib/python3.12
