import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import TableContainer from '@mui/material/TableContainer';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Phones: under MUI's `sm` breakpoint (600 px), where lists turn into cards. A threshold of its own,
 * apart from the shell's mobile layout (`lg`): a tablet keeps the tables (docs/decisions/106).
 */
export function useIsPhone(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
}

/**
 * A table that may be wider than the screen: a named scroll region reachable with the keyboard (its
 * arrows then scroll it), a shadow on the edge that hides columns and a line saying the table
 * scrolls, both only while something is out of view.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  const region = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState({ left: false, right: false });
  useEffect(() => {
    const element = region.current;
    if (!element) return;
    const measure = () => {
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setHidden((previous) =>
        previous.left === left && previous.right === right ? previous : { left, right },
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, []);
  const shadow = (side: 'left' | 'right') => ({
    position: 'absolute',
    top: 0,
    bottom: 0,
    [side]: 0,
    width: 24,
    pointerEvents: 'none',
    background: `linear-gradient(to ${side}, transparent, rgba(0, 0, 0, 0.55))`,
  });
  return (
    <Box>
      <Box sx={{ position: 'relative' }}>
        <TableContainer
          ref={region}
          role="region"
          aria-label={label}
          tabIndex={0}
          data-testid="scroll-table"
          data-overflows={hidden.left || hidden.right}
        >
          {children}
        </TableContainer>
        {hidden.left ? <Box aria-hidden sx={shadow('left')} /> : null}
        {hidden.right ? <Box aria-hidden sx={shadow('right')} /> : null}
      </Box>
      {hidden.left || hidden.right ? (
        <Typography variant="caption" color="text.secondary" data-testid="scroll-cue">
          Faites défiler le tableau sur le côté pour voir toutes les colonnes →
        </Typography>
      ) : null}
    </Box>
  );
}
