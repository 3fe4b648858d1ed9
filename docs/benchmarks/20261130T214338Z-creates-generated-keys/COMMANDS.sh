# A = hotpath.jar built at cf37772 (before this session), B = built at 13e7925 (generated keys off, Response.Builder, LinkJson.time)
s="taskset -c 0 java --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -jar"
f="serve shortener --bind 127.0.0.1:{port} --data {data} --event-loops 1 --durability full"
taskset -c 1 java -jar B.jar bench compare create --key-file '{data}/api-key' --connections 64 --warmup 5s --duration 10s --rounds 3 --a "$s A.jar $f" --b "$s B.jar $f" --results .
