csv = 'doc/results/zen5/touch/every-clear/touch.csv'
svg = 'doc/results/zen5/touch/every-clear/touch.svg'
set datafile separator ','
set terminal svg size 900,540 dynamic noenhanced background rgb 'white'
set output svg
set terminal svg size 800,400; set output svg
set datafile separator ','
set ylabel 'probe cached - application read (points)'
set style data histograms; set style fill solid
plot csv using (100.0 * ($5 - $6) / ($4 > 0 ? $4 : 1)):xtic(sprintf('%s %s %s', strcol(1), strcol(2), strcol(3))) title 'touch probe'
