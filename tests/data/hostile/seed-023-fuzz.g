: rows

3
3
3
3

: columns

4
4
4

: end
