module github.com/ptxvm/ptxvm

go 1.26
