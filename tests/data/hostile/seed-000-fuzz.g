This file declares a small task with coloured blocks.

If the blocks are coloured, write #d in the first column;
the colour declaration ends with a colon in the first column.

#declaration of the colors:
   r:%  red      cervena
   0:   white    bila, the background
   1:*  black    cerna, the default colour
   b:b  #0000FF  modra
: rows
     2r 2b
  1 1r 1b
      3 2b
     2r 1
:columns
2
2r 1
1r 1 1r
1b 1r
3b
1b 1
:end

Enjoy.
