#### basic operators
echo $((3+4)) $((10-3)) $((6*7)) $((20/6)) $((20%6))
#### precedence
echo $((2+3*4)) $(((2+3)*4)) $((2**3**2))
#### negative division truncates
echo $((-7/2)) $((-7%2))
#### comparison results
echo $((3<4)) $((3>4)) $((3==3)) $((3!=3)) $((4<=4)) $((5>=6))
#### logical ops
echo $((1&&0)) $((1||0)) $((!0)) $((!5))
#### bitwise
echo $((5&3)) $((5|3)) $((5^3)) $((~5)) $((1<<4)) $((256>>2))
#### ternary
x=5; echo $((x>3?10:20)) $((x<3?10:20))
#### assignment ops
x=10; ((x+=5)); echo $x; ((x-=3)); echo $x; ((x*=2)); echo $x; ((x/=4)); echo $x; ((x%=4)); echo $x
#### increment decrement
i=5; echo $((i++)) $i $((++i)) $i $((i--)) $i $((--i)) $i
#### variables without dollar
a=3 b=4; echo $((a*a+b*b))
#### variable holding expression
e="2+3"; echo $((e*2))
#### hex octal base
echo $((0x1F)) $((017)) $((2#1010)) $((36#z)) $((16#ff))
#### division by zero
echo $((1/0)); echo after
#### modulo by zero
x=$((5%0)); echo after $?
#### syntax error in arithmetic
echo $((2+)); echo next
#### arith command status
((0)); echo $?; ((5)); echo $?; ((x=0)); echo $?
#### comma operator
echo $((a=1, b=2, a+b))
#### overflow wraps
echo $((9223372036854775807+1))
#### unset var is zero
unset zz; echo $((zz+1))
#### let builtin
let x=5*2 y=x+1; echo $x $y; let "z = 0"; echo $?
#### for arith loop
for ((i=0;i<5;i++)); do printf '%d ' $i; done; echo
#### for arith with empty parts
i=0; for ((;;)); do ((i++)); ((i>3)) && break; done; echo $i
#### arithmetic with array elements
a=(5 10 15); echo $((a[0]+a[2])); i=1; echo $((a[i]*2))
#### assign to array element in arith
a=(1 2 3); ((a[1]=20)); echo ${a[@]}
#### spaces in arith
echo $((  1 +   2  ))
#### exponent negative error
echo $((2**-1)); echo done
#### nested arith
echo $(( $((2+3)) * 2 ))
#### dollar var inside arith
x=7; echo $(( $x * 2 ))
#### integer attribute
declare -i n; n=5+5; echo $n; n+=3; echo $n
#### old style bracket arith
echo $[1+2]
#### arith in conditions
x=4; if ((x % 2 == 0)); then echo even; else echo odd; fi
#### while arith loop
n=0; while ((n < 3)); do echo $n; ((n++)); done
#### large multiplication
echo $((123456789*987654321))
#### unary minus and plus
x=3; echo $((-x)) $((+x)) $((- -x))
#### compound compare chain
echo $((1<2<3)) $((3>2>1))
