package fp

import "flag"

// -fp.long runs the randomized comparisons with 100 times more vectors.
var longFlag = flag.Bool("fp.long", false, "run the long randomized fp comparisons")
