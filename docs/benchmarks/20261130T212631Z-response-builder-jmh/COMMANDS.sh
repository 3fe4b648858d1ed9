# B = benchmarks.jar built at 4ff3e12 plus the buildCreated benchmark; C = the same with the new Response.Builder.
for v in B C B C; do taskset -c 0 java -jar bench$v.jar 'ResponseEncoderBenchmark.build(Created|Json)' -prof gc -wi 3 -w 1 -i 5 -r 1 -f 1; done
