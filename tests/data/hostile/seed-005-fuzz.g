This file holds the task "house" of the rofl test suite.

Lines before the colon in the first column are comments only.
The seventh row is empty: its line is blank.

: rows (text from the colon to the end of the line is ignored)
1
3
5
2 2
   1 1 1
1  1  1

5
: this colon starts the columns
1
4 1
2 1
3 2 1
2 1
4 1
1
: END - all text after this colon is ignored.

3 2 1
