import { useEffect, useRef } from 'react';

const FLAKES_PER_MEGAPIXEL = 90;

interface Flake {
  x: number;
  y: number;
  radius: number;
  speed: number;
  drift: number;
  phase: number;
}

/** Light snowfall on one canvas behind the pointer (no events), paused when the tab is hidden. */
export function Snow() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;

    let flakes: Flake[] = [];
    let frame = 0;
    const resize = () => {
      canvas.width = window.innerWidth;
      canvas.height = window.innerHeight;
      const count = Math.round(((canvas.width * canvas.height) / 1_000_000) * FLAKES_PER_MEGAPIXEL) + 20;
      flakes = Array.from({ length: count }, () => ({
        x: Math.random() * canvas.width,
        y: Math.random() * canvas.height,
        radius: 1 + Math.random() * 2.5,
        speed: 0.4 + Math.random() * 1.1,
        drift: 0.3 + Math.random() * 0.7,
        phase: Math.random() * Math.PI * 2,
      }));
    };
    const draw = () => {
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = 'rgba(255, 255, 255, 0.8)';
      context.beginPath();
      for (const flake of flakes) {
        flake.y += flake.speed;
        flake.phase += 0.01;
        flake.x += Math.sin(flake.phase) * flake.drift * 0.5;
        if (flake.y > canvas.height + 4) {
          flake.y = -4;
          flake.x = Math.random() * canvas.width;
        }
        context.moveTo(flake.x, flake.y);
        context.arc(flake.x, flake.y, flake.radius, 0, Math.PI * 2);
      }
      context.fill();
      frame = window.requestAnimationFrame(draw);
    };
    resize();
    frame = window.requestAnimationFrame(draw);
    window.addEventListener('resize', resize);
    return () => {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('resize', resize);
    };
  }, []);

  return (
    <canvas
      ref={canvasRef}
      data-testid="snow"
      tabIndex={-1}
      aria-hidden="true"
      style={{ position: 'fixed', inset: 0, pointerEvents: 'none', zIndex: 1400 }}
    />
  );
}
